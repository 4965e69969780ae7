import { brokerMain } from './broker';

brokerMain();
